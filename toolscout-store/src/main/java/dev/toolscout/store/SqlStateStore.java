package dev.toolscout.store;

import dev.toolscout.catalog.StateStore;
import dev.toolscout.model.ToolSpec;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link StateStore} whose SQL is written once, for SQLite and PostgreSQL, in one part per concept ({@code
 * CatalogSql}, {@code SkillSql}, ...: each implements its concept's store through JDBI); this class hands each method
 * to its part. What differs between the databases is {@code SqlDialect}'s, given by the subclass.
 *
 * <p>Lists come back in the order Java compares strings, whatever collation the database sorted by; times are kept
 * to the millisecond. Thread-safe as its subclasses' transactions are.
 */
public abstract sealed class SqlStateStore extends SqlDialect implements StateStore
    permits SqliteStateStore, PostgresStateStore {
  final CatalogSql catalogSql = new CatalogSql(this);
  final VectorSql vectorSql = new VectorSql(this);
  final TokenCountSql tokenCountSql = new TokenCountSql(this);
  final PolicySql policySql = new PolicySql(this);
  final ServerSql serverSql = new ServerSql(this);
  final OpenApiSourceSql openApiSourceSql = new OpenApiSourceSql(this);
  final ApprovalSql approvalSql = new ApprovalSql(this);
  final SkillSql skillSql = new SkillSql(this);
  final ConversationSql conversationSql = new ConversationSql(this);
  final MemorySql memorySql = new MemorySql(this);
  final LearnedSql learnedSql = new LearnedSql(this);
  final RunSql runSql = new RunSql(this);
  final UsageSql usageSql = new UsageSql(this);

  @Override
  public StoredCatalog loadCatalog() {
    return catalogSql.loadCatalog();
  }

  @Override
  public long catalogVersion() {
    return catalogSql.catalogVersion();
  }

  @Override
  public long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals) {
    return catalogSql.applyCatalogChange(upserts, removals);
  }

  @Override
  public Set<String> toolsChangedSince(long version) {
    return catalogSql.toolsChangedSince(version);
  }

  @Override
  public Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes) {
    return vectorSql.loadVectors(modelId, textHashes);
  }

  @Override
  public void saveVectors(String modelId, Map<String, float[]> byTextHash) {
    vectorSql.saveVectors(modelId, byTextHash);
  }

  @Override
  public Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes) {
    return tokenCountSql.loadTokenCounts(counter, contentHashes);
  }

  @Override
  public void saveTokenCounts(String counter, Map<String, Integer> byContentHash) {
    tokenCountSql.saveTokenCounts(counter, byContentHash);
  }

  @Override
  public Optional<String> loadPolicyJson() {
    return policySql.loadPolicyJson();
  }

  @Override
  public void savePolicyJson(String json) {
    policySql.savePolicyJson(json);
  }

  @Override
  public List<StoredServer> loadServers() {
    return serverSql.loadServers();
  }

  @Override
  public void saveServer(StoredServer server) {
    serverSql.saveServer(server);
  }

  @Override
  public boolean deleteServer(String name) {
    return serverSql.deleteServer(name);
  }

  @Override
  public List<String> loadDisabledServers() {
    return serverSql.loadDisabledServers();
  }

  @Override
  public boolean setServerDisabled(String name, boolean disabled) {
    return serverSql.setServerDisabled(name, disabled);
  }

  @Override
  public Optional<String> loadOpenApiSource(String name) {
    return openApiSourceSql.loadOpenApiSource(name);
  }

  @Override
  public void saveOpenApiSource(String name, String configJson) {
    openApiSourceSql.saveOpenApiSource(name, configJson);
  }

  @Override
  public boolean deleteOpenApiSource(String name) {
    return openApiSourceSql.deleteOpenApiSource(name);
  }

  @Override
  public void saveApproval(StoredApproval approval) {
    approvalSql.saveApproval(approval);
  }

  @Override
  public Optional<StoredApproval> loadApproval(String id) {
    return approvalSql.loadApproval(id);
  }

  @Override
  public List<StoredApproval> loadApprovals() {
    return approvalSql.loadApprovals();
  }

  @Override
  public boolean transitionApproval(String id, ApprovalStatus from, ApprovalStatus to, String decidedBy, Instant decidedAt) {
    return approvalSql.transitionApproval(id, from, to, decidedBy, decidedAt);
  }

  @Override
  public List<StoredSkill> loadSkills() {
    return skillSql.loadSkills();
  }

  @Override
  public void saveSkill(StoredSkill skill) {
    skillSql.saveSkill(skill);
  }

  @Override
  public boolean deleteSkill(String name) {
    return skillSql.deleteSkill(name);
  }

  @Override
  public Optional<StoredConversation> loadConversation(String principal, String id) {
    return conversationSql.loadConversation(principal, id);
  }

  @Override
  public void saveConversation(StoredConversation conversation) {
    conversationSql.saveConversation(conversation);
  }

  @Override
  public boolean deleteConversation(String principal, String id) {
    return conversationSql.deleteConversation(principal, id);
  }

  @Override
  public int deleteConversationsUsedBefore(Instant cutoff) {
    return conversationSql.deleteConversationsUsedBefore(cutoff);
  }

  @Override
  public List<String> conversationIds(String principal) {
    return conversationSql.conversationIds(principal);
  }

  @Override
  public int conversationCount() {
    return conversationSql.conversationCount();
  }

  @Override
  public List<StoredMemory> loadMemories() {
    return memorySql.loadMemories();
  }

  @Override
  public void saveMemory(StoredMemory memory) {
    memorySql.saveMemory(memory);
  }

  @Override
  public boolean deleteMemory(String id) {
    return memorySql.deleteMemory(id);
  }

  @Override
  public void saveLearned(List<StoredLearned> pairs) {
    learnedSql.saveLearned(pairs);
  }

  @Override
  public List<StoredLearned> loadLearned() {
    return learnedSql.loadLearned();
  }

  @Override
  public int deleteLearned(Collection<String> tools) {
    return learnedSql.deleteLearned(tools);
  }

  @Override
  public void saveRun(StoredRun run) {
    runSql.saveRun(run);
  }

  @Override
  public Optional<StoredRun> loadRun(String id) {
    return runSql.loadRun(id);
  }

  @Override
  public List<StoredRun> loadRunsByStatus(String status) {
    return runSql.loadRunsByStatus(status);
  }

  @Override
  public List<StoredRun> loadRuns(String principal, String conversationId) {
    return runSql.loadRuns(principal, conversationId);
  }

  @Override
  public boolean deleteRun(String id) {
    return runSql.deleteRun(id);
  }

  @Override
  public void saveUsage(StoredUsage usage) {
    usageSql.saveUsage(usage);
  }

  @Override
  public List<StoredUsage> loadUsage(Instant since, int limit) {
    return usageSql.loadUsage(since, limit);
  }
}
