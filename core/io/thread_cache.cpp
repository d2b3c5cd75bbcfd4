#include "io/thread_cache.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace meshscope {

// One thread and its task. The thread runs tasks until it is told to exit.
struct CachedThread::Slot {
    std::mutex mutex;
    std::condition_variable changed;
    std::function<void()> task;  // the task to run; empty when there is none
    bool running = false;        // a task was handed over and has not returned
    bool exit = false;
    std::thread thread;

    void loop() {
        std::unique_lock lock(mutex);
        for (;;) {
            changed.wait(lock, [&] { return exit || task; });
            if (!task) return;  // told to exit, and nothing left to run
            std::function<void()> run = std::move(task);
            task = nullptr;
            lock.unlock();
            run();
            run = nullptr;  // what the task holds goes before its caller is told
            lock.lock();
            running = false;
            changed.notify_all();
        }
    }
};

namespace {

// The process's cache of idle threads. It is never destroyed: threads still idle when the process
// exits are ended with it, and a task that returns during exit finds the cache still there.
class Cache {
public:
    static Cache& instance() {
        static Cache* cache = new Cache;
        return *cache;
    }

    // An idle slot, or a new slot with a new thread.
    CachedThread::Slot* take() {
        {
            std::lock_guard lock(mutex_);
            if (!idle_.empty()) {
                CachedThread::Slot* slot = idle_.back().release();
                idle_.pop_back();
                return slot;
            }
        }
        auto slot = std::make_unique<CachedThread::Slot>();
        slot->thread = std::thread([s = slot.get()] { s->loop(); });
        return slot.release();
    }

    // A slot whose task has returned: kept for the next task, or its thread ended.
    void give(CachedThread::Slot* slot) {
        std::unique_ptr<CachedThread::Slot> owned(slot);
        {
            std::lock_guard lock(mutex_);
            if (int(idle_.size()) < kIdleThreads) {
                idle_.push_back(std::move(owned));
                return;
            }
        }
        {
            std::lock_guard lock(owned->mutex);
            owned->exit = true;
        }
        owned->changed.notify_all();
        owned->thread.join();
    }

private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<CachedThread::Slot>> idle_;
};

}  // namespace

CachedThread::CachedThread(std::function<void()> task) {
    Slot* slot = Cache::instance().take();
    {
        std::lock_guard lock(slot->mutex);
        slot->task = std::move(task);
        slot->running = true;
    }
    slot->changed.notify_all();
    slot_ = slot;
}

CachedThread::~CachedThread() {
    join();
}

CachedThread::CachedThread(CachedThread&& other) noexcept : slot_(other.slot_) {
    other.slot_ = nullptr;
}

CachedThread& CachedThread::operator=(CachedThread&& other) noexcept {
    if (this != &other) {
        join();
        slot_ = other.slot_;
        other.slot_ = nullptr;
    }
    return *this;
}

void CachedThread::join() {
    if (!slot_) return;
    {
        std::unique_lock lock(slot_->mutex);
        slot_->changed.wait(lock, [&] { return !slot_->running; });
    }
    Cache::instance().give(slot_);
    slot_ = nullptr;
}

}  // namespace meshscope
