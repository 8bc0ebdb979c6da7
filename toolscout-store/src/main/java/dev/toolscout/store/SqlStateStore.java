package dev.toolscout.store;

import dev.toolscout.state.StateStore;

/**
 * A {@link StateStore} whose SQL is written once, for SQLite and PostgreSQL: each concept's part ({@code
 * CatalogSql}, {@code ApprovalSql}, ...) implements its concept's store interface with default methods over JDBI,
 * and this class is their sum. What differs between the databases is {@code SqlDialect}'s, given by the subclass.
 * A new stored record adds its part here, to {@code implements}.
 *
 * <p>Lists come back in the order Java compares strings, whatever collation the database sorted by; times are kept
 * to the millisecond. Thread-safe as its subclasses' transactions are.
 */
public abstract sealed class SqlStateStore extends SqlDialect
        implements StateStore,
                CatalogSql,
                VectorSql,
                TokenCountSql,
                PolicySql,
                ServerSql,
                OpenApiSourceSql,
                ApprovalSql,
                SkillSql,
                ConversationSql,
                MemorySql,
                LearnedSql,
                RunSql,
                UsageSql
        permits SqliteStateStore, PostgresStateStore {}
