"""One module per subcommand; COMMANDS maps each name to `module:attribute` for lazy loading."""

from __future__ import annotations

COMMANDS: dict[str, str] = {
    "check": "pygen.commands.check:check",
    "doctor": "pygen.commands.doctor:doctor_cmd",
    "extract": "pygen.commands.extract:extract_cmd",
    "gen": "pygen.commands.gen:gen",
    "init": "pygen.commands.init:init_cmd",
    "protocol": "pygen.commands.protocol:protocol",
    "schema": "pygen.commands.schema:schema",
    "serve": "pygen.commands.serve:serve",
    "validate-workflow": "pygen.commands.validate_workflow:validate_workflow_cmd",
}

# Commands that always run the extractor: the CLI starts Node before importing them.
EXTRACTING: frozenset[str] = frozenset({"extract"})
