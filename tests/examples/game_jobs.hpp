#pragma once
// Keel's parallel loops on a game's own threads (docs/threads.md): a small
// pool of worker threads that share each loop's iterations with the thread
// that asked.

#include <keel/jobs.hpp>

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace game {

/// The game's workers. A loop's iterations go out `grain` at a time to
/// whichever thread asks first, the caller included; a loop started inside
/// another runs on the thread that started it.
class GameJobs : public keel::JobSystem {
 public:
  explicit GameJobs(int workers);
  ~GameJobs() override;
  GameJobs(const GameJobs&) = delete;
  GameJobs& operator=(const GameJobs&) = delete;

  void parallelFor(std::size_t count, std::size_t grain,
                   const std::function<void(std::size_t, std::size_t)>& body) override;

 private:
  struct Loop;
  void work();
  void runAll(Loop& loop, std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Loop* loop_ = nullptr;  // the loop the workers share, if any
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace game
