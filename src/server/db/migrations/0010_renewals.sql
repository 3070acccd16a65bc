ALTER TABLE "invoices" ADD COLUMN "period_start" date;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "period_end" date;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "recurring" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "next_due_date" date;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "renewal_reminders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_renewal_period_key" ON "invoices" USING btree ("service_id","period_start") WHERE "invoices"."kind" = 'renewal';--> statement-breakpoint
CREATE INDEX "services_due_idx" ON "services" USING btree ("next_due_date") WHERE "services"."next_due_date" is not null;