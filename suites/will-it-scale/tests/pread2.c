#include "testcase.h"

WIS_TESTCASE(pread2, "Same file pread to same offset", name_buf_prepare, name_rdonly_setup,
	     pread1_run);
