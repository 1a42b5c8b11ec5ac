"""Sourced data about GPUs, features, prices and models, shipped as package data files."""
