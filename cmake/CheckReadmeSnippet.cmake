# cmake -DREADME=... -DSOURCE=... -P CheckReadmeSnippet.cmake
# Fails unless README.md contains SOURCE verbatim: the README's integration
# example is the consumer project's main.cpp, which the tests compile and run.
file(READ "${README}" readme)
file(READ "${SOURCE}" source)
string(FIND "${readme}" "${source}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not contain ${SOURCE} verbatim: update the integration example")
endif()
