package dev.toolscout.access;

import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Computes what a principal may see, before any ranking: the {@link AllowedSet} every search then runs
 * inside. Results are cached per (catalog version, policy version, principal); the cache is small and
 * dropped whenever the catalog or the policy changes.
 *
 * <p>Thread-safe. A cached set is read without a lock: every selection asks here twice (its tools, its skills),
 * and a lock taken by every request was where 32 concurrent in-process selections queued (a third of their
 * threads BLOCKED on it in {@code jstack}, bench-http, docs/BENCHMARKS.md "HTTP API against in-process").
 */
public final class AccessControl {
    /**
     * Cached allowed sets at most. Past it, the sets of older catalog and policy versions go first, then others at
     * random (a set is recomputed by one pass over the catalog).
     */
    public static final int CACHE_SIZE = 1024;

    private volatile AccessPolicy policy;
    private volatile long policyVersion;
    private final ConcurrentHashMap<Key, AllowedSet> cache = new ConcurrentHashMap<>();

    public AccessControl(AccessPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    public AccessPolicy policy() {
        return policy;
    }

    /** Replaces the policy; cached sets of the old one are never used again. */
    public synchronized void setPolicy(AccessPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        // the policy before its version: a reader that sees the new version sees the new policy (allowed reads them
        // in the other order), and a set computed under the old one is never stored (its version is stale)
        this.policyVersion++;
        cache.clear();
    }

    /** The ordinals of {@code snapshot} that {@code principal} may see. */
    public AllowedSet allowed(Catalog.Snapshot snapshot, Principal principal) {
        // the version, then the policy (setPolicy writes them in the other order): a key of the new version is never
        // computed with the old policy
        Key key = new Key(snapshot.version(), snapshot.universe(), policyVersion, principal);
        AccessPolicy p = policy;
        AllowedSet hit = cache.get(key);
        if (hit != null) {
            return hit;
        }
        Resolver r = new Resolver(p, principal);
        BitSet bits = new BitSet(snapshot.universe());
        for (CatalogEntry e : snapshot.unordered()) {
            if (r.allows(e.spec())) {
                bits.set(e.ord());
            }
        }
        AllowedSet set = AllowedSet.of(bits, snapshot.universe());
        synchronized (this) {
            if (key.policyVersion() == policyVersion) {
                if (cache.size() >= CACHE_SIZE) {
                    evict(key);
                }
                cache.put(key, set);
            }
        }
        return set;
    }

    /** Under the lock, with the cache full: drops the sets of other versions than {@code key}'s, else one in four. */
    private void evict(Key key) {
        cache.keySet()
                .removeIf(k -> k.catalogVersion() != key.catalogVersion() || k.policyVersion() != key.policyVersion());
        if (cache.size() >= CACHE_SIZE) {
            int[] n = {0};
            cache.keySet().removeIf(k -> n[0]++ % 4 == 0);
        }
    }

    /** Whether {@code principal} may see {@code spec} under the current policy. */
    public boolean allows(Principal principal, ToolSpec spec) {
        return new Resolver(policy, principal).allows(spec);
    }

    /**
     * The groups of the policy (those its group rules name) whose members may use {@code spec}, in name order: each
     * judged as a principal of that group with no user and no space, so by the group's rules, the rules for everyone
     * and the default (a user's or a space's own rules may still narrow it). What {@code describe} shows as {@code
     * available_in_groups}; its callers answer it only for a tool the asking principal may see, since for any other
     * it would tell who may use a tool the asker is not to know of.
     */
    public List<String> groupsAllowed(ToolSpec spec) {
        AccessPolicy p = policy;
        java.util.TreeSet<String> groups = new java.util.TreeSet<>();
        for (AccessRule rule : p.rules()) {
            if (rule.subject() == AccessRule.Subject.GROUP) {
                groups.add(rule.subjectValue());
            }
        }
        List<String> out = new java.util.ArrayList<>();
        for (String g : groups) {
            if (new Resolver(p, new Principal(null, g, null)).allows(spec)) {
                out.add(g);
            }
        }
        return List.copyOf(out);
    }

    private record Key(long catalogVersion, int universe, long policyVersion, Principal principal) {}

    /**
     * The rules that apply to one principal, indexed by target for an O(1) decision per tool. Rank: lower is
     * more specific; subject rank dominates target rank.
     */
    private static final class Resolver {
        private final Effect defaultEffect;
        private final Map<String, int[]> byTool = new HashMap<>();
        private final Map<String, int[]> bySource = new HashMap<>();
        private final Map<String, int[]> byCategory = new HashMap<>();

        Resolver(AccessPolicy policy, Principal p) {
            this.defaultEffect = policy.defaultEffect();
            List<String> chain = policy.spaceChain(p.space());
            for (AccessRule rule : policy.rules()) {
                int subjectRank = subjectRank(rule, p, chain);
                if (subjectRank < 0) {
                    continue;
                }
                int rank = subjectRank * 3 + rule.target().ordinal();
                Map<String, int[]> m = switch (rule.target()) {
                    case TOOL -> byTool;
                    case SOURCE -> bySource;
                    case CATEGORY -> byCategory;
                };
                // keep the most specific rule per target value; at equal rank DENY wins
                int[] cur = m.get(rule.targetValue());
                int deny = rule.effect() == Effect.DENY ? 1 : 0;
                if (cur == null || rank < cur[0] || (rank == cur[0] && deny > cur[1])) {
                    m.put(rule.targetValue(), new int[] {rank, deny});
                }
            }
        }

        /** 0 user, 1 group, 2.. the space chain nearest first, then everyone; -1 when the rule does not apply. */
        private static int subjectRank(AccessRule rule, Principal p, List<String> chain) {
            return switch (rule.subject()) {
                case USER -> rule.subjectValue().equals(p.user()) ? 0 : -1;
                case GROUP -> rule.subjectValue().equals(p.group()) ? 1 : -1;
                case SPACE -> {
                    int i = chain.indexOf(rule.subjectValue());
                    yield i < 0 ? -1 : 2 + i;
                }
                case EVERYONE -> 2 + chain.size();
            };
        }

        boolean allows(ToolSpec spec) {
            if (spec.aiAccess() == AiAccess.BLOCKED) {
                return false;
            }
            int[] best = pick(null, byTool.get(spec.fullName()));
            best = pick(best, bySource.get(spec.name().source()));
            best = pick(best, byCategory.get(spec.category()));
            if (best == null) {
                return defaultEffect == Effect.ALLOW;
            }
            return best[1] == 0;
        }

        private static int[] pick(int[] a, int[] b) {
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            if (a[0] != b[0]) {
                return a[0] < b[0] ? a : b;
            }
            return a[1] >= b[1] ? a : b;
        }
    }
}
