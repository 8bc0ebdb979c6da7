package dev.toolscout.springboot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code toolscout.*} properties (docs/SPRING_AI.md). */
@ConfigurationProperties("toolscout")
public class ToolScoutProperties {
    /** Whether to configure ToolScout at all. */
    private boolean enabled = true;

    /** The data directory: the SQLite store, the search index and the lock (created if missing). */
    private Path dataDir = Path.of("toolscout-data");

    /** A PostgreSQL store shared by several replicas ({@code postgresql://user@host:5432/db}), instead of SQLite. */
    private String store;

    /** The embedding model ({@code all-minilm-l6-v2-q}, the default, or {@code bge-small-en-v1.5-q}). */
    private String model;

    /** An access policy file (JSON or YAML) in force instead of the stored policy. */
    private Path policyFile;

    /** Catalog files (JSON or YAML) whose tools are added to or updated in the catalog at start. */
    private List<Path> catalogFiles = new ArrayList<>();

    /** Open the data directory read-only (another process, a {@code toolscout serve}, holds it). */
    private boolean readOnly;

    /** The name of the {@code PrincipalResolver} bean to use when the context holds several. */
    private String principalResolver;

    private final Search search = new Search();

    /** The tool-search advisor's settings. */
    public static class Search {
        /** How many tools one search finds at most (1-50). */
        private int limit = 5;

        /** How many of ToolScout's selected tools the first request carries besides the search tool (0-50). */
        private int preselect;

        public int getLimit() {
            return limit;
        }

        public void setLimit(int limit) {
            this.limit = limit;
        }

        public int getPreselect() {
            return preselect;
        }

        public void setPreselect(int preselect) {
            this.preselect = preselect;
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Path getDataDir() {
        return dataDir;
    }

    public void setDataDir(Path dataDir) {
        this.dataDir = dataDir;
    }

    public String getStore() {
        return store;
    }

    public void setStore(String store) {
        this.store = store;
    }

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    public Path getPolicyFile() {
        return policyFile;
    }

    public void setPolicyFile(Path policyFile) {
        this.policyFile = policyFile;
    }

    public List<Path> getCatalogFiles() {
        return catalogFiles;
    }

    public void setCatalogFiles(List<Path> catalogFiles) {
        this.catalogFiles = catalogFiles;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    public String getPrincipalResolver() {
        return principalResolver;
    }

    public void setPrincipalResolver(String principalResolver) {
        this.principalResolver = principalResolver;
    }

    public Search getSearch() {
        return search;
    }
}
