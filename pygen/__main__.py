from pygen.cli import main

main()
