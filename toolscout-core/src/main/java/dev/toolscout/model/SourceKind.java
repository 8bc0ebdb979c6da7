package dev.toolscout.model;

/** Where a tool comes from. */
public enum SourceKind {
  INTEGRATION,
  SKILL,
  MCP,
  OPENAPI
}
