#include "testcase.h"

WIS_TESTCASE(pwrite2, "Same file pwrite to same offset", name_buf_prepare, name_rdwr_setup,
	     pwrite1_run);
