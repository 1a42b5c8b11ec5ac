"""Retrieval over the corpus: chunking, embeddings, the Chroma index and hybrid search."""
