CREATE TABLE "currencies" (
	"code" text PRIMARY KEY NOT NULL,
	"rate" numeric(10, 5) NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	CONSTRAINT "currencies_rate_positive" CHECK ("currencies"."rate" > 0),
	CONSTRAINT "currencies_default_rate_one" CHECK (not "currencies"."is_default" or "currencies"."rate" = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_one_default" ON "currencies" USING btree ("is_default") WHERE "currencies"."is_default";