#include "testcase.h"

WIS_TESTCASE(read2, "Same file read", name_mib_prepare, name_rdonly_setup, read1_run);
