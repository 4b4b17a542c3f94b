"""A Model Context Protocol server over a workspace (`python -m core mcp`), built on the official `mcp` SDK.

Modules: `workspace` (the store, defaults and caches every tool shares), `papers` (corpora, search, one paper,
similar papers, journal suggestions), `topics` (the topic hierarchy and a topic's papers), `models` (model
comparison, stored evaluation figures), `writing` (import, training jobs, job status), `tools` (their registration
with JSON schemas and progress notifications), `resources` (paper:// and topic:// and the literature-review prompt),
`server` (the SDK server, errors as one sentence, stdio and HTTP), `config` (the client configuration the app's
sidebar shows). Nothing in core imports this package except the CLI's `mcp` command; it never imports streamlit.
"""
