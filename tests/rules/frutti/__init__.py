"""Frutti di Mare's rules tests."""
