<?php
function add(int $a, int $b): int { return $a + $b; }
