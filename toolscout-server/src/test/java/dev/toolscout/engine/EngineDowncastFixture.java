package dev.toolscout.engine;

/**
 * What ShapeTest must refuse: a class of another module that puts itself in the engine's package (the class path
 * allows it) to downcast a {@link ToolScout} and reach the engine behind it. Only ShapeTest loads it, to check that
 * its rule fails on it; nothing calls it.
 */
public final class EngineDowncastFixture {
  private EngineDowncastFixture() {}

  static Object engineBehind(ToolScout scout) {
    return ((LocalToolScout) scout).engine();
  }
}
