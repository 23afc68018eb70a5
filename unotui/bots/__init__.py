"""unotui.bots (see unotui/__init__.py for the layers)."""
