"""Jaipur's rules tests."""
