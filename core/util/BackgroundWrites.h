#pragma once
// Files written off the thread that made their content, which nothing waits
// for but the end of the process: a large trace's index and its saved
// Overview, written beside the analysis so that the document shows first.
// They run on the core's pool (util/ThreadPool.h); each file is written
// atomically in any case, so a process killed mid-write leaves none behind.
#include <functional>

namespace ts {

// Queues `write`; an exception it throws is dropped (the file is a cache).
void writeInBackground(std::function<void()> write);
// Returns once every queued write has ended. The GUI calls it before it
// exits; tests call it before they look for the files.
void waitForBackgroundWrites();

} // namespace ts
