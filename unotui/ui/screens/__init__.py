"""The screens of the Textual front end, one module each (styles in ``.tcss`` beside them)."""
