"""The package's version: the one the developer portal's SDK card names."""

__version__ = "1.7.0"
