"""The tests, sorted by the layer they test: ``engine/`` (rules, playouts, determinism),
``table/`` (the referee, on a fake clock), ``bots/``, ``protocol/`` (codec, sessions,
vectors), ``net/`` (the table core, the controllers and solo play's LocalGame, host and
remote seat over loopback), ``lobby/``, ``ssh/``, ``ui/`` (Textual's pilot, snapshots; ``tui_support``),
``e2e/`` (a real terminal in tmux; ``tmux_support``), ``transcript/``, ``sim/``, ``cli/``,
``bench/`` (the benchmarks' smoke runs) and ``hostile/`` (attacks across layers).  At the
top: ``test_layers.py``, the import rules of the whole package, and ``conftest.py``."""
