"""Review outputs: JSON (:mod:`.json`), the terminal table (:mod:`.terminal`), the
self-contained HTML report (:mod:`.html`) and its SVG board (:mod:`.svg`)."""
