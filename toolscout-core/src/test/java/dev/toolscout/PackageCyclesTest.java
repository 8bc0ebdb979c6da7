package dev.toolscout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.catalog.Catalog;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ARCHITECTURE.md: "No package cycles." Reads core's compiled classes (not its sources, so imports by wildcard,
 * fully qualified names and nested types all count) the way jdeps does: every class a class file's constant
 * pool names, as a class entry or inside a descriptor or signature. JDK 21 has no public class-file API (the
 * ClassFile API is final only in 24), and the constant pool is simple enough to walk by hand.
 */
class PackageCyclesTest {
    private static final String ROOT = "dev/toolscout/";
    /** A class name inside a descriptor or generic signature: {@code Ldev/toolscout/catalog/Catalog;}. */
    private static final Pattern IN_DESCRIPTOR = Pattern.compile("L(dev/toolscout/[A-Za-z0-9_/$]+)[;<]");

    @Test
    void core_has_no_package_cycles() {
        Map<String, Map<String, Set<String>>> graph = packageGraph(classesDir());

        // the scan itself must work, or "no cycles" would hold for a graph with no edges
        assertThat(graph.keySet()).contains("dev.toolscout.selection", "dev.toolscout.catalog", "dev.toolscout.access");
        assertThat(graph.get("dev.toolscout.selection")).containsKeys("dev.toolscout.access", "dev.toolscout.catalog");

        assertThat(cycles(graph))
                .as("package cycles in toolscout-core (each with the classes that close it)")
                .isEmpty();
    }

    @Test
    void the_cycle_finder_reports_a_cycle_with_the_classes_that_make_it() {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        edge(graph, "a", "b", "a.X -> b.Y");
        edge(graph, "b", "c", "b.Y -> c.Z");
        edge(graph, "c", "a", "c.Z -> a.X");
        edge(graph, "c", "d", "c.Z -> d.W");

        List<String> found = cycles(graph);

        assertThat(found).hasSize(1);
        assertThat(found.get(0)).contains("a", "b", "c").contains("c.Z -> a.X").doesNotContain("d.W");
    }

    private static void edge(Map<String, Map<String, Set<String>>> g, String from, String to, String why) {
        g.computeIfAbsent(from, k -> new TreeMap<>())
                .computeIfAbsent(to, k -> new TreeSet<>())
                .add(why);
        g.computeIfAbsent(to, k -> new TreeMap<>());
    }

    private static Path classesDir() {
        try {
            return Path.of(Catalog.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** package -> package it uses -> "Class -> Class" examples of the use. */
    static Map<String, Map<String, Set<String>>> packageGraph(Path classes) {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String self =
                        classes.relativize(f).toString().replace('\\', '/').replaceAll("\\.class$", "");
                String from = packageOf(self);
                graph.computeIfAbsent(from, k -> new TreeMap<>());
                for (String used : referencedClasses(Files.readAllBytes(f))) {
                    if (!used.startsWith(ROOT)) {
                        continue;
                    }
                    String to = packageOf(used);
                    if (!to.equals(from)) {
                        graph.get(from)
                                .computeIfAbsent(to, k -> new TreeSet<>())
                                .add(simple(self) + " -> " + simple(used));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return graph;
    }

    private static String packageOf(String internalName) {
        return internalName.substring(0, internalName.lastIndexOf('/')).replace('/', '.');
    }

    private static String simple(String internalName) {
        return internalName.substring(internalName.lastIndexOf('/') + 1);
    }

    /** Class names (internal form) in a class file's constant pool: class entries and names in descriptors. */
    static Set<String> referencedClasses(byte[] classFile) {
        Set<String> out = new TreeSet<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file");
            }
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> classNameIndexes = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7 -> classNameIndexes.add(in.readUnsignedShort()); // Class
                    case 8, 16, 19, 20 -> in.readUnsignedShort(); // String, MethodType, Module, Package
                    case 15 -> { // MethodHandle
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt(); // Integer, Float, refs, NameAndType, dynamic
                    case 5, 6 -> { // Long, Double take two slots
                        in.readLong();
                        i++;
                    }
                    default -> throw new IllegalArgumentException("unknown constant pool tag " + tag + " at " + i);
                }
            }
            for (int idx : classNameIndexes) {
                String n = utf8[idx];
                // array classes are named by descriptor ("[Ldev/...;"), which the pattern below reads
                if (n != null && !n.startsWith("[")) {
                    out.add(n);
                }
            }
            for (String s : utf8) {
                if (s != null && s.indexOf('L') >= 0) {
                    Matcher m = IN_DESCRIPTOR.matcher(s);
                    while (m.find()) {
                        out.add(m.group(1));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Every strongly connected set of two or more packages (Tarjan), with the edges inside it. */
    static List<String> cycles(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> components = new ArrayList<>();
        int[] next = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, graph, index, low, stack, onStack, components, next);
            }
        }
        List<String> out = new ArrayList<>();
        for (List<String> c : components) {
            if (c.size() < 2) {
                continue;
            }
            Set<String> members = new TreeSet<>(c);
            StringBuilder b = new StringBuilder(String.join(" <-> ", members)).append(':');
            for (String from : members) {
                graph.get(from).forEach((to, why) -> {
                    if (members.contains(to)) {
                        b.append("\n  ")
                                .append(from)
                                .append(" -> ")
                                .append(to)
                                .append(" (")
                                .append(String.join(", ", why))
                                .append(')');
                    }
                });
            }
            out.add(b.toString());
        }
        return out;
    }

    private static void strongConnect(
            String v,
            Map<String, Map<String, Set<String>>> graph,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            List<List<String>> components,
            int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]);
        next[0]++;
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
            if (!index.containsKey(w)) {
                strongConnect(w, graph, index, low, stack, onStack, components, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> c = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                c.add(w);
            } while (!w.equals(v));
            components.add(c);
        }
    }
}
