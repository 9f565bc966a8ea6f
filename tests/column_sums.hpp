#pragma once
// A check shared by the column tests: the columns hold a given volume.

#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <string>

namespace keel::test {

/// Expects every column of `columns` to hold a positive volume between its
/// bottom and top, their volumes to sum to `volume` [m^3] within `relative`
/// of it (ColumnHull::volume_m3 too), and their centroids to average to
/// `centroid` [m] within `length_m`. Returns the sum, in double.
inline double expectColumnsHold(const ColumnHull& columns, double volume, const btVector3& centroid, double relative,
                                double length_m, const std::string& name) {
  double sum = 0, moment[3] = {0, 0, 0};
  for (const Column& c : columns.columns()) {
    EXPECT_GT(c.volume_m3, 0) << name;
    EXPECT_LE(c.bottom_m, c.top_m) << name;
    sum += double(c.volume_m3);
    for (int k = 0; k < 3; ++k) moment[k] += double(c.volume_m3) * double(c.centroid_m[k]);
  }
  EXPECT_NEAR(columns.volume_m3(), volume, relative * volume) << name;
  EXPECT_NEAR(sum, volume, relative * volume) << name;
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(moment[k] / sum, double(centroid[k]), length_m) << name << ", axis " << k;
  return sum;
}

}  // namespace keel::test
