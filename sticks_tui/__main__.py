import sys

from sticks_tui.cli import main

sys.exit(main())
