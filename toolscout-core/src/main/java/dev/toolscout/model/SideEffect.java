package dev.toolscout.model;

/** The strongest effect a tool can have on the outside world. */
public enum SideEffect {
    READ,
    WRITE,
    DELETE
}
