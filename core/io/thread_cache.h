// Threads kept for reuse by the decoders' workers (InflateAhead). Starting a thread and joining
// it cost about 0.15 ms on the development VM, a twentieth of decoding a 100 000-part place: a
// thread that has finished its task waits, idle, for the next one instead of exiting. At most
// kIdleThreads wait at a time; a task that finds none idle gets a new thread.
#pragma once

#include <functional>
#include <memory>

namespace meshscope {

class CachedThread {
public:
    CachedThread() = default;
    // Runs `task` on an idle cached thread, or a new one. Throws std::system_error (or
    // std::bad_alloc) when no thread can be had; the task has not run then.
    explicit CachedThread(std::function<void()> task);
    ~CachedThread();  // join()s
    CachedThread(CachedThread&& other) noexcept;
    CachedThread& operator=(CachedThread&& other) noexcept;
    CachedThread(const CachedThread&) = delete;
    CachedThread& operator=(const CachedThread&) = delete;

    // Whether a task was started and not joined yet.
    bool joinable() const { return slot_ != nullptr; }
    // Waits until the task has returned, then gives the thread back to the cache.
    void join();

    struct Slot;

private:
    Slot* slot_ = nullptr;
};

// How many finished threads wait for the next task at most.
inline constexpr int kIdleThreads = 2;

}  // namespace meshscope
