"""MIReAD Explorer core: corpora, embeddings, search, maps, journals, training, evaluation.

This package never imports streamlit; pages and the CLI call into it.
"""

__version__ = "0.1.0"
