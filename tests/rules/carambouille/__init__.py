"""Carambouille's rules tests."""
