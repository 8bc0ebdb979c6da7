package dev.toolscout.index;

final class Placeholder {}
