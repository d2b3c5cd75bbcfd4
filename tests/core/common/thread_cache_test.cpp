// Cached threads: a task runs on its own thread, join() waits for it, and a finished thread runs
// the next task instead of a new one being started.
#include "io/thread_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace meshscope {
namespace {

TEST(CachedThread, RunsTheTaskOnAnotherThreadAndJoinWaitsForIt) {
    std::atomic<bool> done = false;
    std::thread::id ran;
    CachedThread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ran = std::this_thread::get_id();
        done = true;
    });
    EXPECT_TRUE(t.joinable());
    t.join();
    EXPECT_TRUE(done);
    EXPECT_NE(ran, std::this_thread::get_id());
    EXPECT_FALSE(t.joinable());
    t.join();  // a second join does nothing
}

TEST(CachedThread, AFinishedThreadRunsTheNextTask) {
    std::set<std::thread::id> threads;
    for (int i = 0; i < 8; ++i) {
        std::thread::id id;
        CachedThread([&] { id = std::this_thread::get_id(); }).join();
        threads.insert(id);
    }
    // One after another: each task finds the thread of the one before idle.
    EXPECT_EQ(threads.size(), 1u);
}

TEST(CachedThread, TasksAtTheSameTimeGetThreadsOfTheirOwn) {
    // Each task waits for the other: both must run at once, or neither would finish.
    std::mutex m;
    std::condition_variable cv;
    int arrived = 0;
    auto meet = [&] {
        std::unique_lock lock(m);
        ++arrived;
        cv.notify_all();
        return cv.wait_for(lock, std::chrono::seconds(10), [&] { return arrived == 2; });
    };
    bool a = false, b = false;
    CachedThread first([&] { a = meet(); });
    CachedThread second([&] { b = meet(); });
    first.join();
    second.join();
    EXPECT_TRUE(a);
    EXPECT_TRUE(b);
}

TEST(CachedThread, TheDestructorJoinsAndMovesCarryTheTask) {
    std::atomic<int> runs = 0;
    {
        CachedThread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            ++runs;
        });
        CachedThread moved = std::move(t);
        EXPECT_FALSE(t.joinable());
        EXPECT_TRUE(moved.joinable());
    }
    EXPECT_EQ(runs, 1);
}

TEST(CachedThread, WhatTheTaskHoldsIsFreedBeforeJoinReturns) {
    auto held = std::make_shared<int>(7);
    std::weak_ptr<int> watch = held;
    CachedThread t([h = std::move(held)] { EXPECT_EQ(*h, 7); });
    t.join();
    EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace meshscope
