"""Syntax stage: the grammar, the parser, the AST, variant loading (extends,
override) and the lowering of sugar before the check."""
