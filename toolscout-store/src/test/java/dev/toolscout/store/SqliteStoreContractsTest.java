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
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** Every concept's store contract, run against {@link SqliteStateStore} (a file in a fresh directory per test). */
class SqliteStoreContractsTest {
    @TempDir
    Path dir;

    private SqliteStateStore open() {
        return SqliteStateStore.open(dir.resolve("data").resolve("state.db"));
    }

    @Nested
    class Catalog extends CatalogStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Vectors extends VectorStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class TokenCounts extends TokenCountStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Policy extends PolicyStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Servers extends ServerStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class OpenApiSources extends OpenApiSourceStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Approvals extends ApprovalStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Skills extends SkillStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Conversations extends ConversationStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Memories extends MemoryStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class Learned extends LearnedStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }

    @Nested
    class RunsAndUsage extends RunStoreContract {
        @Override
        protected StateStore newStore() {
            return open();
        }

        @Override
        protected StateStore reopen() {
            return open();
        }
    }
}
