"""The `referee` command line. Each command lives in its own module."""
