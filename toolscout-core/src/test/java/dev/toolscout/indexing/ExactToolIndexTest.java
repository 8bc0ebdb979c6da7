package dev.toolscout.indexing;

/** Runs the {@link ToolIndexContract} against the brute-force fake, so the fake stays honest. */
class ExactToolIndexTest extends ToolIndexContract {
    @Override
    protected ToolIndex newIndex(int dimension) {
        return new ExactToolIndex(dimension);
    }
}
