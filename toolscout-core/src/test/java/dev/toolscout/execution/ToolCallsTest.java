package dev.toolscout.execution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.Approvals;
import dev.toolscout.execution.ToolCalls.Outcome;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.InMemoryStateStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The call gate's order of checks, over hand-written tools and executors and the in-memory approval queue. */
class ToolCallsTest {
    private static final Principal ALICE = new Principal("alice", null, null);
    private static final ToolSpec READ = spec("files__read_file", AiAccess.EXECUTE, SideEffect.READ);
    private static final ToolSpec WRITE = spec("files__write_file", AiAccess.EXECUTE, SideEffect.WRITE);
    private static final ToolSpec DELETE = spec("files__delete_file", AiAccess.PROPOSE, SideEffect.DELETE);
    private static final ToolSpec SECRET = spec("vault__read_secret", AiAccess.EXECUTE, SideEffect.READ);
    private static final ToolSpec BLOCKED = spec("shell__run", AiAccess.BLOCKED, SideEffect.WRITE);

    private final Approvals approvals =
            new Approvals(new InMemoryStateStore(), Clock.systemUTC(), Approvals.DEFAULT_TTL);
    private final ToolCalls.ApprovalStep queue = ToolCalls.queue(approvals, Approvals.Channel.AGENT, "run-1");
    /** What the executor was asked to run, in order. */
    private final List<String> ran = new ArrayList<>();
    /**
     * The tools the principal may see: {@code vault__read_secret} exists but the policy denies it, so the lookup
     * leaves it out as it leaves out a missing one.
     */
    private final ToolCalls.Tools<String> tools = (p, name) -> Optional.ofNullable(Map.of(
                            READ.fullName(),
                            READ,
                            WRITE.fullName(),
                            WRITE,
                            DELETE.fullName(),
                            DELETE,
                            BLOCKED.fullName(),
                            BLOCKED)
                    .get(name))
            .map(s -> new ToolCalls.Target<>(
                    s,
                    s,
                    args -> ((ObjectNode) args).has("bad") ? "bad is not allowed" : null,
                    (tool, args, approved) -> {
                        ran.add(tool.fullName() + " " + args);
                        return "done";
                    }));

    private static ToolSpec spec(String name, AiAccess access, SideEffect effect) {
        return ToolSpec.builder(name, "A tool of the test.")
                .aiAccess(access)
                .sideEffect(effect)
                .build();
    }

    private Outcome<String> call(Role role, String tool, String raw) throws InterruptedException {
        return ToolCalls.call(new ToolCalls.Request(ALICE, role, "key:alice", "c-1", tool, raw, null), tools, queue);
    }

    @Test
    void a_denied_tool_with_bad_arguments_answers_as_a_missing_one() throws Exception {
        Outcome<String> denied = call(Role.READER, SECRET.fullName(), "[not an object");
        Outcome<String> missing = call(Role.READER, "vault__nothing_here", "[not an object");

        assertThat(denied).isEqualTo(new Outcome.NotFound<String>(SECRET.fullName()));
        assertThat(((Outcome.NotFound<String>) denied).message()).isEqualTo("Tool not found: vault__read_secret");
        assertThat(((Outcome.NotFound<String>) missing).message()).isEqualTo("Tool not found: vault__nothing_here");
        assertThat(ran).isEmpty();
    }

    @Test
    void a_blocked_tool_answers_as_a_missing_one_and_never_runs() throws Exception {
        assertThat(call(null, BLOCKED.fullName(), "{}")).isEqualTo(new Outcome.NotFound<String>(BLOCKED.fullName()));
        assertThat(ran).isEmpty();
    }

    @Test
    void a_readers_write_tool_is_refused_before_its_arguments_are_checked() throws Exception {
        Outcome<String> o = call(Role.READER, WRITE.fullName(), "{\"bad\": 1}");

        assertThat(o).isInstanceOf(Outcome.Refused.class);
        assertThat(((Outcome.Refused<String>) o).message())
                .isEqualTo("files__write_file was not run: an API key with "
                        + "the role reader may run only tools that read and need no approval, and this one has side effect write. "
                        + "Ask the gateway's operator for a key with the role user.");
        assertThat(call(Role.READER, READ.fullName(), "{}")).isInstanceOf(Outcome.Ran.class);
        assertThat(ran).containsExactly("files__read_file {}");
    }

    @Test
    void oversize_arguments_are_refused_before_they_are_parsed() throws Exception {
        String huge = "[" + "x".repeat(InputLimits.MAX_ARGUMENT_BYTES); // not JSON either: the size speaks first

        Outcome<String> o = call(Role.USER, READ.fullName(), huge);

        assertThat(o)
                .isEqualTo(new Outcome.InvalidArguments<String>(InputLimits.argumentsTooLarge(READ.fullName(), huge)));
        assertThat(ran).isEmpty();
    }

    @Test
    void arguments_that_are_not_a_json_object_or_break_the_channels_check_are_named() throws Exception {
        assertThat(call(null, READ.fullName(), "[1, 2]"))
                .isEqualTo(new Outcome.InvalidArguments<String>(
                        "files__read_file: the arguments must be a JSON object, got: [1, 2]"));
        assertThat(call(null, READ.fullName(), "{oops"))
                .isEqualTo(new Outcome.InvalidArguments<String>("files__read_file: the arguments are not JSON: {oops"));
        assertThat(call(null, READ.fullName(), "{\"bad\": true}"))
                .isEqualTo(new Outcome.InvalidArguments<String>("bad is not allowed"));
        assertThat(call(null, READ.fullName(), " ")).isInstanceOf(Outcome.Ran.class);
        assertThat(ran).containsExactly("files__read_file {}");
    }

    @Test
    void a_propose_call_is_held_then_runs_once_after_approval() throws Exception {
        String args = "{\"path\": \"/tmp/x\"}";
        Outcome<String> first = call(Role.USER, DELETE.fullName(), args);
        Outcome<String> again = call(Role.USER, DELETE.fullName(), args);

        assertThat(first).isInstanceOf(Outcome.Held.class);
        assertThat(((Outcome.Held<String>) first).filed()).isTrue();
        assertThat(((Outcome.Held<String>) again).filed()).isFalse();
        String id = ((Outcome.Held<String>) first).approval().id();
        assertThat(((Outcome.Held<String>) again).approval().id()).isEqualTo(id);
        assertThat(ran).isEmpty();

        approvals.decide(id, true, Approvals.Approver.operator("ops"));
        Outcome<String> approved = call(Role.USER, DELETE.fullName(), args);
        Outcome<String> next = call(Role.USER, DELETE.fullName(), args);

        assertThat(approved).isInstanceOf(Outcome.Ran.class);
        assertThat(((Outcome.Ran<String>) approved).approval().id()).isEqualTo(id);
        assertThat(ran).containsExactly("files__delete_file {\"path\":\"/tmp/x\"}");
        assertThat(next).isInstanceOf(Outcome.Held.class);
        assertThat(((Outcome.Held<String>) next).approval().id()).isNotEqualTo(id);
    }

    @Test
    void a_denied_approval_says_who_denied_it_and_the_call_never_runs() throws Exception {
        String id = ((Outcome.Held<String>) call(null, DELETE.fullName(), "{}"))
                .approval()
                .id();
        approvals.decide(id, false, Approvals.Approver.operator("ops"));

        Outcome<String> o = call(null, DELETE.fullName(), "{}");

        assertThat(((Outcome.Denied<String>) o).message())
                .isEqualTo("files__delete_file was not run: approval request " + id
                        + " for this call was denied by cli:ops.");
        assertThat(ran).isEmpty();
    }

    @Test
    void a_reader_is_refused_a_propose_tool_before_an_approval_is_filed() throws Exception {
        Outcome<String> o = call(Role.READER, DELETE.fullName(), "{}");

        assertThat(((Outcome.Refused<String>) o).message()).contains("this one needs approval");
        assertThat(approvals.list()).isEmpty();
    }

    @Test
    void parsed_arguments_are_passed_as_given_and_anything_but_an_object_is_refused() throws Exception {
        Outcome<String> map = ToolCalls.call(
                new ToolCalls.Request(ALICE, Role.USER, "key:alice", null, READ.fullName(), null, Map.of("path", "a")),
                (p, n) -> Optional.of(new ToolCalls.Target<>(READ, (t, a, ok) -> "ran " + a)),
                queue);
        Outcome<String> list = ToolCalls.call(
                new ToolCalls.Request(ALICE, Role.USER, "key:alice", null, READ.fullName(), null, List.of(1)),
                (p, n) -> Optional.of(new ToolCalls.Target<>(READ, (t, a, ok) -> "ran " + a)),
                queue);

        assertThat(((Outcome.Ran<String>) map).result()).isEqualTo("ran {path=a}");
        assertThat(list)
                .isEqualTo(new Outcome.InvalidArguments<String>(
                        "files__read_file: the arguments must be a JSON object, got: [1]"));
    }

    @Test
    void a_tool_with_no_executor_or_a_failing_one_is_failed_not_an_exception() throws Exception {
        ToolCalls.Request r = new ToolCalls.Request(ALICE, null, "local", null, READ.fullName(), "{}", null);

        Outcome<String> none = ToolCalls.call(r, (p, n) -> Optional.of(new ToolCalls.Target<>(READ, null)), queue);
        Outcome<String> failing = ToolCalls.call(
                r,
                (p, n) -> Optional.of(new ToolCalls.Target<String>(READ, (t, a, ok) -> {
                    throw new IllegalStateException("disk full");
                })),
                queue);

        assertThat(none)
                .isEqualTo(new Outcome.Failed<String>("files__read_file is not executable here: no executor "
                        + "runs tools of source 'files' (integration) in this ToolScout"));
        // the message as before; what the executor threw is kept for an edge whose own API throws it
        assertThat(failing).isInstanceOfSatisfying(Outcome.Failed.class, f -> {
            assertThat(f.message()).isEqualTo("files__read_file failed: disk full");
            assertThat(f.cause()).isInstanceOf(IllegalStateException.class).hasMessage("disk full");
        });
    }
}
