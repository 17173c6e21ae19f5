"""The score sheet's rules tests."""
