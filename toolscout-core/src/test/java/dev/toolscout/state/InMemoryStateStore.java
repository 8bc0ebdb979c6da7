package dev.toolscout.state;

import dev.toolscout.model.ToolSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** A hand-written in-memory {@link StateStore} for fast tests (nothing survives the JVM). Thread-safe. */
public final class InMemoryStateStore implements StateStore {
    private final TreeMap<String, ToolSpec> tools = new TreeMap<>();
    private final Map<String, float[]> vectors = new HashMap<>();
    private final TreeMap<String, StoredServer> servers = new TreeMap<>();
    private final java.util.TreeSet<String> disabledServers = new java.util.TreeSet<>();
    private final TreeMap<String, String> openApiSources = new TreeMap<>();
    private final Map<String, StoredApproval> approvals = new LinkedHashMap<>();
    private final TreeMap<String, StoredSkill> skills = new TreeMap<>();
    private final TreeMap<String, StoredMemory> memories = new TreeMap<>();
    /** By principal, then id. */
    private final Map<List<String>, StoredConversation> conversations = new LinkedHashMap<>();

    private long version;
    private String policyJson;

    @Override
    public synchronized StoredCatalog loadCatalog() {
        return new StoredCatalog(version, new ArrayList<>(tools.values()));
    }

    @Override
    public synchronized long catalogVersion() {
        return version;
    }

    /**
     * Called with each catalog change before it is written, outside the store's lock: a test's hook to hold a
     * writer inside a change or to fail one (an exception writes nothing).
     */
    public volatile java.util.function.BiConsumer<List<ToolSpec>, Collection<String>> beforeCatalogChange =
            (u, r) -> {};

    @Override
    public long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals) {
        beforeCatalogChange.accept(upserts, removals);
        return applyCatalogChangeLocked(upserts, removals);
    }

    private synchronized long applyCatalogChangeLocked(List<ToolSpec> upserts, Collection<String> removals) {
        upserts.forEach(t -> tools.put(t.fullName(), t));
        removals.forEach(tools::remove);
        return ++version;
    }

    @Override
    public synchronized Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes) {
        Map<String, float[]> out = new HashMap<>();
        for (String h : textHashes) {
            float[] v = vectors.get(modelId + "/" + h);
            if (v != null) {
                out.put(h, v.clone());
            }
        }
        return out;
    }

    @Override
    public synchronized void saveVectors(String modelId, Map<String, float[]> byTextHash) {
        byTextHash.forEach((h, v) -> vectors.put(modelId + "/" + h, v.clone()));
    }

    @Override
    public synchronized Optional<String> loadPolicyJson() {
        return Optional.ofNullable(policyJson);
    }

    @Override
    public synchronized void savePolicyJson(String json) {
        this.policyJson = java.util.Objects.requireNonNull(json, "policy json");
    }

    @Override
    public synchronized List<StoredServer> loadServers() {
        return List.copyOf(servers.values());
    }

    @Override
    public synchronized void saveServer(StoredServer server) {
        Objects.requireNonNull(server, "server");
        servers.put(server.name(), server);
    }

    @Override
    public synchronized boolean deleteServer(String name) {
        Objects.requireNonNull(name, "name");
        return servers.remove(name) != null;
    }

    @Override
    public synchronized List<String> loadDisabledServers() {
        return List.copyOf(disabledServers);
    }

    @Override
    public synchronized boolean setServerDisabled(String name, boolean disabled) {
        Objects.requireNonNull(name, "name");
        return disabled ? disabledServers.add(name) : disabledServers.remove(name);
    }

    @Override
    public synchronized Optional<String> loadOpenApiSource(String name) {
        Objects.requireNonNull(name, "name");
        return Optional.ofNullable(openApiSources.get(name));
    }

    @Override
    public synchronized void saveOpenApiSource(String name, String configJson) {
        if (name == null || name.isBlank() || configJson == null) {
            throw new IllegalArgumentException("an OpenAPI source needs a name and its JSON, got: '" + name + "'");
        }
        openApiSources.put(name, configJson);
    }

    @Override
    public synchronized boolean deleteOpenApiSource(String name) {
        Objects.requireNonNull(name, "name");
        return openApiSources.remove(name) != null;
    }

    @Override
    public synchronized void saveApproval(StoredApproval approval) {
        Objects.requireNonNull(approval, "approval");
        if (approvals.putIfAbsent(approval.id(), approval) != null) {
            throw new IllegalArgumentException("an approval request with id '" + approval.id() + "' is already stored");
        }
    }

    @Override
    public synchronized Optional<StoredApproval> loadApproval(String id) {
        Objects.requireNonNull(id, "id");
        return Optional.ofNullable(approvals.get(id));
    }

    @Override
    public synchronized List<StoredApproval> loadApprovals() {
        List<StoredApproval> out = new ArrayList<>(approvals.values());
        out.sort(Comparator.comparing(StoredApproval::createdAt).thenComparing(StoredApproval::id));
        return List.copyOf(out);
    }

    @Override
    public synchronized boolean transitionApproval(
            String id, ApprovalStatus from, ApprovalStatus to, String decidedBy, Instant decidedAt) {
        StoredApproval a = approvals.get(Objects.requireNonNull(id, "id"));
        if (a == null || a.status() != from) {
            return false;
        }
        approvals.put(id, a.moved(to, decidedBy, decidedAt));
        return true;
    }

    @Override
    public synchronized List<StoredMemory> loadMemories() {
        return List.copyOf(memories.values());
    }

    @Override
    public synchronized void saveMemory(StoredMemory memory) {
        memories.put(memory.id(), memory);
    }

    @Override
    public synchronized boolean deleteMemory(String id) {
        return memories.remove(id) != null;
    }

    @Override
    public synchronized List<StoredSkill> loadSkills() {
        return List.copyOf(skills.values());
    }

    @Override
    public synchronized void saveSkill(StoredSkill skill) {
        Objects.requireNonNull(skill, "skill");
        skills.put(skill.name(), skill);
    }

    @Override
    public synchronized boolean deleteSkill(String name) {
        return skills.remove(Objects.requireNonNull(name, "name")) != null;
    }

    @Override
    public synchronized Optional<StoredConversation> loadConversation(String principal, String id) {
        return Optional.ofNullable(conversations.get(List.of(principal, id)));
    }

    @Override
    public synchronized void saveConversation(StoredConversation c) {
        Objects.requireNonNull(c, "conversation");
        conversations.put(List.of(c.principal(), c.id()), c);
    }

    @Override
    public synchronized boolean deleteConversation(String principal, String id) {
        return conversations.remove(List.of(principal, id)) != null;
    }

    @Override
    public synchronized int deleteConversationsUsedBefore(Instant cutoff) {
        int before = conversations.size();
        conversations.values().removeIf(c -> c.lastUsedAt().isBefore(cutoff));
        return before - conversations.size();
    }

    @Override
    public synchronized List<String> conversationIds(String principal) {
        return conversations.values().stream()
                .filter(c -> c.principal().equals(principal))
                .sorted(Comparator.comparing(StoredConversation::lastUsedAt).thenComparing(StoredConversation::id))
                .map(StoredConversation::id)
                .toList();
    }

    @Override
    public synchronized int conversationCount() {
        return conversations.size();
    }

    @Override
    public void close() {}

    private final Map<String, StoredRun> runs = new LinkedHashMap<>();
    private final Map<String, StoredUsage> usage = new LinkedHashMap<>();

    @Override
    public synchronized void saveRun(StoredRun run) {
        runs.put(run.id(), run);
    }

    @Override
    public synchronized Optional<StoredRun> loadRun(String id) {
        return Optional.ofNullable(runs.get(id));
    }

    @Override
    public synchronized List<StoredRun> loadRunsByStatus(String status) {
        return runs.values().stream()
                .filter(r -> r.status().equals(status))
                .sorted(Comparator.comparing(StoredRun::createdAt).thenComparing(StoredRun::id))
                .toList();
    }

    @Override
    public synchronized List<StoredRun> loadRuns(String principal, String conversationId) {
        return runs.values().stream()
                .filter(r ->
                        r.principal().equals(principal) && r.conversationId().equals(conversationId))
                .sorted(Comparator.comparing(StoredRun::createdAt).thenComparing(StoredRun::id))
                .toList();
    }

    @Override
    public synchronized boolean deleteRun(String id) {
        return runs.remove(id) != null;
    }

    @Override
    public synchronized void saveUsage(StoredUsage u) {
        usage.put(u.id(), u);
    }

    @Override
    public synchronized List<StoredUsage> loadUsage(Instant since, int limit) {
        return usage.values().stream()
                .filter(u -> !u.at().isBefore(since))
                .sorted(Comparator.comparing(StoredUsage::at).thenComparing(StoredUsage::id))
                .limit(limit)
                .toList();
    }

    private final Map<String, StoredLearned> learned = new java.util.TreeMap<>();

    @Override
    public synchronized void saveLearned(List<StoredLearned> pairs) {
        pairs.forEach(p -> learned.put(p.tool() + "\u0000" + p.messageHash(), p));
    }

    @Override
    public synchronized List<StoredLearned> loadLearned() {
        return List.copyOf(learned.values());
    }

    @Override
    public synchronized int deleteLearned(java.util.Collection<String> tools) {
        int before = learned.size();
        learned.values().removeIf(p -> tools == null || tools.contains(p.tool()));
        return before - learned.size();
    }

    /** By counter, then content hash. */
    private final Map<String, Map<String, Integer>> tokenCounts = new HashMap<>();

    @Override
    public synchronized Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes) {
        Map<String, Integer> mine = tokenCounts.getOrDefault(counter, Map.of());
        Map<String, Integer> out = new HashMap<>();
        for (String h : contentHashes) {
            Integer n = mine.get(h);
            if (n != null) {
                out.put(h, n);
            }
        }
        return out;
    }

    @Override
    public synchronized void saveTokenCounts(String counter, Map<String, Integer> byContentHash) {
        byContentHash.forEach((h, n) -> {
            if (n < 0) {
                throw new IllegalArgumentException(
                        "token count of content hash '" + h + "' must be at least 0, got: " + n);
            }
        });
        tokenCounts.computeIfAbsent(counter, k -> new HashMap<>()).putAll(byContentHash);
        java.util.Set<String> keep = new java.util.HashSet<>(byContentHash.keySet());
        tools.values().forEach(t -> keep.add(t.contentHash()));
        tokenCounts.values().forEach(m -> m.keySet().retainAll(keep));
    }
}
