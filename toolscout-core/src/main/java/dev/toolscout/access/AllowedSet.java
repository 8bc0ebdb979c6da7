package dev.toolscout.access;

import java.util.BitSet;

/**
 * The catalog ordinals a principal may see, computed before any ranking. Every search runs inside it. An
 * immutable value: the bits are copied in and never handed out.
 */
public final class AllowedSet {
    private final BitSet bits;
    private final int cardinality;
    private final int universe;

    private AllowedSet(BitSet bits, int universe) {
        this.bits = bits;
        this.cardinality = bits.cardinality();
        this.universe = universe;
    }

    /**
     * @param bits the allowed ordinals (copied)
     * @param universe how many ordinals the catalog has assigned (the highest ordinal + 1); lets an index
     *     skip filtering when everything is allowed
     */
    public static AllowedSet of(BitSet bits, int universe) {
        return new AllowedSet((BitSet) bits.clone(), universe);
    }

    public boolean contains(int ord) {
        return ord >= 0 && bits.get(ord);
    }

    public int cardinality() {
        return cardinality;
    }

    /** How many ordinals the catalog had when this set was computed. */
    public int universe() {
        return universe;
    }

    public boolean isEmpty() {
        return cardinality == 0;
    }

    /** This set without the ordinals in {@code excluded} (this same set when it holds none of them). */
    public AllowedSet without(BitSet excluded) {
        if (!bits.intersects(excluded)) {
            return this;
        }
        BitSet b = (BitSet) bits.clone();
        b.andNot(excluded);
        return new AllowedSet(b, universe);
    }

    /** The next allowed ordinal at or after {@code from}, or -1. */
    public int nextAllowed(int from) {
        return bits.nextSetBit(from);
    }
}
