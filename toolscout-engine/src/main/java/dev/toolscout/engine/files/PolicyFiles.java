package dev.toolscout.engine.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessPolicyJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Access policy files ({@code docs/ACCESS_POLICY.md}): JSON, or YAML by the extension. */
public final class PolicyFiles {
    private PolicyFiles() {}

    /**
     * Reads and checks an access policy file.
     *
     * @throws IllegalArgumentException naming the file: missing, malformed (with the line and column), or a policy
     *     that breaks a rule
     */
    public static AccessPolicy read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + ": policy file not found");
        }
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        ObjectMapper mapper =
                n.endsWith(".yaml") || n.endsWith(".yml") ? new ObjectMapper(new YAMLFactory()) : new ObjectMapper();
        JsonNode root;
        try {
            root = mapper.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(
                    file + ": malformed policy at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage(),
                    e);
        }
        return AccessPolicyJson.fromJson(root, file.toString());
    }
}
