#!/usr/bin/env node
import { runMain } from "citty";
import { evalSimulate } from "./eval-simulate.js";

runMain(evalSimulate);
