"""Stage 6, server: the skills, served to agents over MCP."""
