"""LLM backends behind one batch interface: transformers, vLLM (in process or served), any OpenAI-compatible
server; the generation cache and ledger, the local model store, prompting and tool-call parsing."""
