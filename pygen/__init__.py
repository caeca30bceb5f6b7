"""pygen: derive agent skill files from TypeScript node definitions and MCP tool schemas."""

__version__ = "0.1.0"
