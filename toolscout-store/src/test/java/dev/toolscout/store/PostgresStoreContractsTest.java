package dev.toolscout.store;

import dev.toolscout.access.PolicyStoreContract;
import dev.toolscout.approval.ApprovalStoreContract;
import dev.toolscout.catalog.CatalogStoreContract;
import dev.toolscout.conversation.ConversationStoreContract;
import dev.toolscout.embedding.VectorStoreContract;
import dev.toolscout.learning.LearnedStoreContract;
import dev.toolscout.memory.MemoryStoreContract;
import dev.toolscout.openapi.OpenApiSourceStoreContract;
import dev.toolscout.render.TokenCountStoreContract;
import dev.toolscout.runs.RunStoreContract;
import dev.toolscout.servers.ServerStoreContract;
import dev.toolscout.skills.SkillStoreContract;
import dev.toolscout.state.StateStore;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;

/**
 * Every concept's store contract, run against {@link PostgresStateStore} on the test PostgreSQL (a fresh schema per
 * test, see {@link PostgresTestDatabase}).
 */
class PostgresStoreContractsTest {
    private static final PostgresTestDatabase DB = new PostgresTestDatabase();
    private String address;

    @AfterAll
    static void dropSchemas() throws SQLException {
        DB.dropAll();
    }

    private PostgresStateStore fresh() {
        address = DB.newSchema();
        return PostgresStateStore.open(address);
    }

    private PostgresStateStore again() {
        return PostgresStateStore.open(address);
    }

    @Nested
    class Catalog extends CatalogStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Vectors extends VectorStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class TokenCounts extends TokenCountStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Policy extends PolicyStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Servers extends ServerStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class OpenApiSources extends OpenApiSourceStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Approvals extends ApprovalStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Skills extends SkillStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Conversations extends ConversationStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Memories extends MemoryStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class Learned extends LearnedStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }

    @Nested
    class RunsAndUsage extends RunStoreContract {
        @Override
        protected StateStore newStore() {
            return fresh();
        }

        @Override
        protected StateStore reopen() {
            return again();
        }
    }
}
