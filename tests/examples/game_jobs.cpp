#include "game_jobs.hpp"

#include <algorithm>

namespace game {

struct GameJobs::Loop {
  std::size_t count, grain, next = 0, finished = 0;
  int users = 0;  // workers inside runAll
  const std::function<void(std::size_t, std::size_t)>* body;
};

GameJobs::GameJobs(int workers) {
  for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
}

GameJobs::~GameJobs() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Runs the loop's ranges while any is left to take; called, and returns,
// with the lock held.
void GameJobs::runAll(Loop& loop, std::unique_lock<std::mutex>& lock) {
  while (loop.next < loop.count) {
    const std::size_t begin = loop.next, end = std::min(loop.count, begin + loop.grain);
    loop.next = end;
    lock.unlock();
    (*loop.body)(begin, end);
    lock.lock();
    loop.finished += end - begin;
  }
}

void GameJobs::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || (loop_ != nullptr && loop_->next < loop_->count); });
    if (stopping_) return;
    Loop& loop = *loop_;
    ++loop.users;
    runAll(loop, lock);
    --loop.users;
    done_.notify_all();
  }
}

void GameJobs::parallelFor(std::size_t count, std::size_t grain,
                           const std::function<void(std::size_t, std::size_t)>& body) {
  Loop loop{count, std::max<std::size_t>(grain, 1), 0, 0, 0, &body};
  std::unique_lock<std::mutex> lock(mutex_);
  if (loop_ != nullptr) {  // a loop inside a loop: this thread runs it alone
    lock.unlock();
    body(0, count);
    return;
  }
  loop_ = &loop;
  wake_.notify_all();
  runAll(loop, lock);
  // Until every range has run and no worker still holds the loop.
  done_.wait(lock, [&] { return loop.finished == loop.count && loop.users == 0; });
  loop_ = nullptr;
}

}  // namespace game
