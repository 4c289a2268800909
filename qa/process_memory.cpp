// qa/process_memory.cpp — see process_memory.h.
#include "qa/process_memory.h"

#include <malloc.h>
#include <unistd.h>

#include <fstream>

namespace satdof {

long residentKiB() {
  malloc_trim(0);
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace satdof
