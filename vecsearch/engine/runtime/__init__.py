"""The machinery every search uses: layers, visited sets, blocks of threads, the memory planner,
kernel code generation, a user's functions guarded, goals, caches, compile time, progress, checkpoints,
endpoints (names to puzzles, start and goal layers)."""
