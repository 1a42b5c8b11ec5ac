"""The agent: LangChain tools over the deterministic tools, the backends, and ask()."""
