"""Stage 5, validation: node data and workflow JSON checked against the extracted schemas."""
