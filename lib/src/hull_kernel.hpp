#pragma once
// The per-substep fast path's SIMD kernels, one header per stage in
// kernels/ (docs/model.md, "How `WaterAction` runs it: the SIMD path").
// This umbrella stays only until its includers name the headers they use.

#include "kernels/air.hpp"
#include "kernels/buffers.hpp"
#include "kernels/classify.hpp"
#include "kernels/cut.hpp"
#include "kernels/flow.hpp"
#include "kernels/heights.hpp"
#include "kernels/hull_soa.hpp"
#include "kernels/pressure.hpp"
