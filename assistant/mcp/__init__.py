"""The tools as an MCP server (`gpu-advisor mcp`), for AI assistants and editors.

An interface like the chat and the bot, but without `ask()`: the client's own model does the
talking and calls the deterministic tools and the corpus search. Everything comes from the
agent's tool registry (`assistant.agent.toolset`), so a tool added there is served here too.
"""
