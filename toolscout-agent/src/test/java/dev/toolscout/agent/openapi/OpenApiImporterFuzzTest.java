package dev.toolscout.agent.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Documents are outside input: random damage to the petstore document (values swapped for other types, nodes
 * dropped, references pointed anywhere, themselves included) must give tools that keep the rules, or an error
 * that names the problem; never another exception. The seed is printed, so a failure can be replayed.
 */
class OpenApiImporterFuzzTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] REFS = {
        "#/components/schemas/Pet",
        "#/components/schemas/NewPet",
        "#/paths",
        "#/components/parameters/PetId",
        "#/",
        "#/nope",
        "#/components/schemas/Owner/properties/pets",
        "other.yaml#/x",
        "#/paths/~1pets/get",
        "#/components/schemas/%50et",
        "#"
    };

    @Test
    void damaged_documents_import_within_the_rules_or_fail_with_a_named_error() throws Exception {
        long seed = System.nanoTime();
        System.out.println("OpenApiImporterFuzzTest seed: " + seed);
        Random random = new Random(seed);
        JsonNode original =
                new YAMLMapper().readTree(OpenApiImporterTest.petstore().toFile());
        int imported = 0;
        for (int i = 0; i < 400; i++) {
            ObjectNode doc = original.deepCopy();
            for (int m = 1 + random.nextInt(4); m > 0; m--) {
                mutate(doc, random);
            }
            try {
                OpenApiImporter.Imported r = OpenApiImporter.parse("fuzz.json", doc, "petstore", null, null);
                imported++;
                // what is stored reads back as the same source, whatever the document held
                assertThat(OpenApiSourceJson.read(OpenApiSourceJson.write(r.source())))
                        .as("seed %d", seed)
                        .isEqualTo(r.source());
                for (ToolSpec t : r.tools()) {
                    assertThat(ToolName.WIRE.matcher(t.fullName()).matches())
                            .as("seed %d: %s", seed, t.fullName())
                            .isTrue();
                    assertThat(r.source().operations()).as("seed %d", seed).containsKey(t.fullName());
                }
            } catch (IllegalArgumentException expected) {
                assertThat(expected.getMessage()).as("seed %d", seed).startsWith("fuzz.json: ");
            }
        }
        assertThat(imported)
                .as("seed %d: most damage leaves something to import", seed)
                .isPositive();
    }

    private static void mutate(ObjectNode doc, Random random) {
        List<JsonNode> parents = new ArrayList<>();
        collect(doc, parents);
        JsonNode parent = parents.get(random.nextInt(parents.size()));
        JsonNode value = switch (random.nextInt(8)) {
            case 0 -> F.nullNode();
            case 1 -> F.numberNode(random.nextInt(1000) - 500);
            case 2 -> F.textNode(random.nextBoolean() ? "" : "{x}/../%2e");
            case 3 -> F.arrayNode().add(F.objectNode());
            case 4 -> F.booleanNode(random.nextBoolean());
            default -> F.objectNode().put("$ref", REFS[random.nextInt(REFS.length)]);
        };
        if (parent instanceof ObjectNode o && !o.isEmpty()) {
            List<String> keys = new ArrayList<>();
            o.fieldNames().forEachRemaining(keys::add);
            String key = keys.get(random.nextInt(keys.size()));
            if (random.nextInt(5) == 0) {
                o.remove(key);
            } else {
                o.set(key, value);
            }
        } else if (parent instanceof ArrayNode a && !a.isEmpty()) {
            a.set(random.nextInt(a.size()), value);
        }
    }

    private static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isContainerNode()) {
            out.add(n);
            n.forEach(c -> collect(c, out));
        }
    }
}
